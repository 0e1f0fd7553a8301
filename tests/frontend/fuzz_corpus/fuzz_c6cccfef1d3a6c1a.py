import triton
impv 0x9‡E37ngua~ÿÿ?x_s ~l ×˜×šÓËÖõ