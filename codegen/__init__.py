"""boidsgen: one YAML spec of a flock, rendered into PIC32 C firmware and a
matching Python simulator model."""

VERSION = "0.1.0"
