"""
Vector addi res          n_ele"