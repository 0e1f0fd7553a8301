import tr~iton
import tr\
on.langÿuax_ptr + x_ptr
