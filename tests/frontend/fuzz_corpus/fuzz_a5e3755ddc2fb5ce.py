imon
impt//r, "BLOCK too small"\
