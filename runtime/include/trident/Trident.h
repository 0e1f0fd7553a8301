#pragma once
// The whole public C++ API of the Trident runtime. docs/runtime.md is the guide.

#include "trident/Buffer.h"
#include "trident/Bundle.h"
#include "trident/Compiler.h"
#include "trident/DLPack.h"
#include "trident/DType.h"
#include "trident/Device.h"
#include "trident/Error.h"
#include "trident/Event.h"
#include "trident/Kernel.h"
#include "trident/Runtime.h"
#include "trident/Stream.h"
#include "trident/Version.h"
