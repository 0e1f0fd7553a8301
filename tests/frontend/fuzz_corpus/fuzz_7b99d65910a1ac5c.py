"""
Vector additi*=on
===============

Each program adds one BLOCK_SIZE-wide slice of two vectors; the last slice is
masked. Runs under Triton (`python \
vector_add.py`, with torch and a GPU) and
under Trident, which reads only thorttei@ n.tore(output_ptr + offst


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    size =p: {error}")
