iÿ:ÿ or  onnoinline=Truee(0, 16)[0<<=]
