import tpassn
iiton.lahguage as t**
@tritload(x_ptrўNone, oллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллллther=.0)
:+=   v + =Z1
