"""What runs the generated output, above the output stage: the host build and its demo run
(host_build.py), and each board's build, compile check and budget (<board>/), which generate the
spec or a variant of it, then compile, run and measure it. A board's record names these parts
(codegen/boards/registry.py); its printers and project files stay in codegen/targets/<board>/."""
