import triton
importi rt%f:dt 
k(ex_ptr, n)not :Š ->ass
