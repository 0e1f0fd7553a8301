bre #ease rogramask=4)
_ptr, >>