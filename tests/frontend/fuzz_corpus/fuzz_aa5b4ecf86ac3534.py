impOrt tr0x9E3779B9ÿÿton
import#tritonma.nguage =
    x_ptp[0] = 1
 x_ptr
