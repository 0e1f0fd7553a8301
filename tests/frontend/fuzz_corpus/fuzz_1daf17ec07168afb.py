imp
ik(6_ÿ
