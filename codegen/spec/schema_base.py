"""What every model of the spec's shape shares (codegen/spec/schema.py and
its sections in schema_*.py): strict models, names, numbers."""
from __future__ import annotations

from typing import Annotated, Union

from pydantic import BaseModel, ConfigDict, Field

Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Number = Union[int, float]


class Strict(BaseModel):
    # strict: a quoted "20" is a string, not a number; YAML already typed it
    model_config = ConfigDict(extra="forbid", strict=True)
