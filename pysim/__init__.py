"""pysim: the hand-written Python runtime the generated simulator model builds on."""
