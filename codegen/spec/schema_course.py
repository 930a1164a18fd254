"""The spec's `course:` section, as Pydantic models (part of codegen/spec/schema.py's Spec)."""
from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from codegen.spec.schema_base import Name, Number, Strict


# ---- the course's Python interface (PySimpleGUI, over the serial link):
# ---- each control maps to one firmware command line (codegen/model/course.py);
# ---- sliders need no mapping: they send `s ID VALUE` with the params' `id`.


def _or_bare_word(*words: str):
    """JSON Schema: the mapping, or one of the bare words (what _BareWordControl reads)."""
    def extra(schema: dict, cls) -> None:
        obj = dict(schema)
        schema.clear()
        schema.update(title=obj.pop("title", cls.__name__), description=obj.pop("description", ""),
                      anyOf=[{"type": "string", "enum": list(words)}, obj])
    return extra


def _one_of(obj, keys: tuple[str, ...], what: str) -> None:
    given = [k for k in keys if getattr(obj, k) is not None]
    if len(given) != 1:
        raise PydanticCustomError(
            "course_action", "{what}: give exactly one of {keys}, not {given}",
            {"what": what, "keys": ", ".join(keys), "given": ", ".join(given) or "none"})


class _BareWordControl(Strict):
    """A control that may be written as a bare word: `1: reset` is `{do: reset}`."""

    @model_validator(mode="before")
    @classmethod
    def bare_word(cls, data):
        return {"do": data} if isinstance(data, str) else data


class CourseAction(_BareWordControl):
    """What a button press (or a toggle's side) does: one firmware command
    line. A bare word (`reset`, `pause`, `resume`) or a mapping with one of
    set (with value), boids, add_boids, remove_boids, command."""

    model_config = ConfigDict(json_schema_extra=_or_bare_word("reset", "pause", "resume"))
    do: Literal["reset", "pause", "resume"] | None = Field(
        None, description="reset the flock, pause or resume the animation (usually written bare: `1: reset`)")
    set: Name | None = Field(None, description="a tunable parameter to set to `value`")
    value: Number | None = Field(None, description="the value `set` gives, within the parameter's [min, max]")
    boids: int | None = Field(None, ge=0, description="set the flock to this many boids (`boids N`)")
    add_boids: int | None = Field(None, ge=1, description="add this many boids (`boids +N`)")
    remove_boids: int | None = Field(None, ge=1, description="remove this many boids, newest first (`boids -N`)")
    command: str | None = Field(None, max_length=255, description="any firmware command line (`help` lists them)")

    @model_validator(mode="after")
    def one_action(self):
        _one_of(self, ("do", "set", "boids", "add_boids", "remove_boids", "command"), "an action")
        if (self.set is None) != (self.value is None):
            raise PydanticCustomError("course_action", "`set: PARAM` goes with `value: V`, each needs the other")
        return self


class CourseButton(CourseAction):
    """A pushbutton (`bNN1` on press, `bNN0` on release): its action runs on
    press; a release runs `release` if given, else only gets `ok`."""

    release: CourseAction | None = Field(None, description="what the release does (default: nothing)")


class CourseToggle(_BareWordControl):
    """A toggle (`tNN1`/`tNNTrue` on, `tNN0`/`tNNFalse` off): `pause` (on:
    pause, off: resume), `adaptive_spawn` (on/off), `{param: P}` (on: set P
    to on_value, default 1; off: off_value, default 0), or `{on: ACTION,
    off: ACTION}`."""

    model_config = ConfigDict(json_schema_extra=_or_bare_word("pause", "adaptive_spawn"))
    do: Literal["pause", "adaptive_spawn"] | None = Field(None, description="usually written bare: `2: pause`")
    param: Name | None = Field(None, description="a tunable parameter: an int one, or give on_value and off_value")
    on_value: Number | None = Field(None, description="what `param` is set to when switched on (default 1)")
    off_value: Number | None = Field(None, description="what `param` is set to when switched off (default 0)")
    on: CourseAction | None = Field(None, description="what switching on does")
    off: CourseAction | None = Field(None, description="what switching off does (default: nothing)")

    @model_validator(mode="after")
    def one_action(self):
        if self.on is None and self.off is not None:
            raise PydanticCustomError("course_action", "`off:` goes with `on:`")
        if self.param is None and (self.on_value is not None or self.off_value is not None):
            raise PydanticCustomError("course_action", "on_value/off_value go with `param:`")
        _one_of(self, ("do", "param", "on"), "a toggle")
        return self


class CourseChoice(Strict):
    """A list box (`l0NK`) or a radio group (`r0GM`): item or member K sets
    `param` to values[K]."""

    param: Name = Field(description="a tunable parameter")
    values: list[Number] = Field(min_length=1, description="the value of each item, in the control's order")


class Course(Strict):
    """The course's PySimpleGUI interface on the serial link: which firmware
    command line each control runs (codegen/model/course.py). Keys are the
    controls' numbers: buttons and toggles 0-99, list boxes and radio groups
    0-9. Sliders need no entry: `s ID VALUE` sets the parameter whose `id` is ID."""

    buttons: dict[int, CourseButton] = Field(default_factory=dict)
    toggles: dict[int, CourseToggle] = Field(default_factory=dict)
    listboxes: dict[int, CourseChoice] = Field(default_factory=dict)
    radios: dict[int, CourseChoice] = Field(default_factory=dict)
