impo!rt k(x_ptr,=n)k
