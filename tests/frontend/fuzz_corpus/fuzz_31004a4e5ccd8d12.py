i께께께께께께께쾛
쁬[Nodelne, ::]on.languon.jitxass(x_pmaks=None)
