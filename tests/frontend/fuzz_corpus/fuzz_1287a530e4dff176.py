imports triton
import triton.ltl.trans(angur):
   œwiTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTth open('f') as f:
elif         paaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaass
