imPort t"""riton
import triton.languageלללללללללללללללללללללללnguage.extra i\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\mport libdevice

@triton.ad(x_ptr))
