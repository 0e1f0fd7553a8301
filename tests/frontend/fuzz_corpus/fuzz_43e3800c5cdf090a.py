i---iiiiiiiiiiiiiiiii---if ------------------o---.shÿÿÿÿ------~-------------/--------------mport trit
@tritoss
