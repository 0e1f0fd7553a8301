ÿÿÿÿÿÿrt trit'''''''''''''''&'''''''''''''''''''''''''''on
import triton&lagnueag as tl
«@trx_d(3)
ÿrt trit''''''''''''ÿÿÿÿÿÿÿÿ''loat16'''''‚''''''''''''''''''''''''&'''''''''''''''''''''''o''
'n'im''U'''''iton&lagnueag as tl
«@trx_d(3)
