"""The spec's shape, as Pydantic v2 models: structure and types only.

Cross-field meaning (a rule naming a missing parameter, min > max, ...) is
checked in checks.py, which can name the exact YAML node at fault.
`boidsgen schema` prints the JSON Schema of `Spec`.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from codegen.boards import registry
from codegen.spec.schema_base import Name, Number, Strict
from codegen.spec.schema_course import Course
from codegen.boards.pic32.pins import NOT_ON_PART, PACKAGE_PIN, PART
from codegen.boards.rp2040 import pins as rp2040_pins


class BoidLook(Strict):
    """How the animation draws a boid (the lab: pixels are fastest, circles biggest)."""

    shape: Literal["pixel", "square", "circle"] = "pixel"
    size: int = Field(2, ge=1, le=8, description="square side or circle diameter, pixels")
    color: str = Field("#FFFFFF", pattern=r"^#[0-9A-Fa-f]{6}$", description="#RRGGBB (sent as RGB565)")


class Display(Strict):
    """The world the rules see; the board's ILI9340 panel (320x240 landscape)
    draws a larger world scaled to fit (codegen/boards/pic32/panel.py)."""

    width: int = Field(320, gt=0, le=4096, description="world pixels")
    height: int = Field(240, gt=0, le=4096, description="world pixels")
    boid: BoidLook = BoidLook()


class FixedPoint(Strict):
    format: Literal["s16.15", "s15.16"] = Field(
        "s16.15",
        description="sIII.FF in a 32-bit int: s16.15 is XC32's _Accum and the RP2040's fix15",
    )
    magnitude: Literal["exact", "alpha_max_beta_min"] = Field(
        "exact", description="how |v| is computed: exact integer square root, or alpha*max + beta*min")
    alpha: float = Field(0.96043387, gt=0, lt=2, description="alpha of alpha-max-plus-beta-min")
    beta: float = Field(0.39782473, ge=0, lt=2, description="beta of alpha-max-plus-beta-min")


class Flock(Strict):
    size: int = Field(100, ge=0, description="boids spawned at reset")
    capacity: int = Field(100, ge=1, le=65535, description="compile-time array size (max boids)")
    spawn_per_second: int = Field(
        0, ge=0, le=1000, description="boids the timing thread adds each second up to size (0: all at reset)"
    )
    adaptive_spawn: bool = Field(
        False, description="the lab's final requirement: on the board, keep adding boids while frames "
        "leave slack and drop the newest when a frame would miss the period")


class Spawn(Strict):
    """Where new boids appear and how fast they fly: parameter names."""

    left: Name = Field(description="spawn x >= this parameter")
    right: Name = Field(description="spawn x < width - this parameter")
    top: Name = Field(description="spawn y >= this parameter")
    bottom: Name = Field(description="spawn y < height - this parameter")
    min_speed: Name
    max_speed: Name


class RuleUse(BaseModel):
    """One entry of `rules:`: the rule's name and, for each of its roles, the
    spec parameter that plays it (`{rule: separation, range: protected_range,
    factor: avoid_factor}`). Which roles a rule has is its definition's
    business, checked against it in spec/checks.py."""

    model_config = ConfigDict(extra="allow", strict=True)
    rule: Name = Field(description="a library rule (`boidsgen rules`) or one of the spec's rule_defs")
    __pydantic_extra__: dict[str, Name]


# ---- entities besides the boids: each section's fields name parameters ----


class Hunt(Strict):
    """The lab's 'smarter predator': steer toward boids within range."""

    range: Name
    factor: Name
    mode: Literal["centroid", "nearest"] = Field(
        "centroid", description="centre of mass of boids in range, or the single nearest boid")


class Predators(Strict):
    """Predators move like boids but only turn at the edges (seed 000/002)."""

    capacity: int = Field(ge=1, le=255)
    count: Name = Field(description="int parameter: predators alive (tunable: settable at run time)")
    min_speed: Name = Field(description="spawn speed floor")
    max_speed: Name = Field(description="spawn speed ceiling")
    turn_factor: Name
    left: Name
    right: Name
    top: Name
    bottom: Name
    hunt: Hunt | None = Field(
        None, description="the library's hunt_nearest or hunt_centroid rule (by mode), run before the edges "
        "with range and factor as its roles")
    speed: RuleUse | None = Field(
        None, description="one rule each predator runs after the edges, bound like a `rules:` entry (e.g. "
        "{rule: speed_limit, min: ..., max: ...}): the one-element spelling of `rules:` (not both); none: "
        "predators only turn at the edges, as seeds 000 and 002 say. min_speed and max_speed are then the "
        "spawn's speeds only")
    rules: list[RuleUse] = Field(
        default_factory=list, description="rules each predator runs in order after the edges, bound like "
        "`rules:` entries; they may see boids, other predators, food and obstacles (docs/rules.md section 5)")


class Obstacles(Strict):
    """Circles the boids avoid (seed 004); placed at run time over serial or in the GUI."""

    capacity: int = Field(ge=1, le=255)
    initial: list[Annotated[list[Number], Field(min_length=3, max_length=3)]] = Field(
        default_factory=list, description="[x, y, radius] in pixels, present at reset")


class Food(Strict):
    """Moving food sources the boids track (lab extension)."""

    capacity: int = Field(ge=1, le=255)
    count: Name = Field(description="int parameter: food sources alive")
    speed: Name = Field(description="fixed parameter: each source's speed, px/frame")
    rules: list[RuleUse] = Field(
        default_factory=list, description="rules each food source runs in order on its velocity before it "
        "drifts and bounces, bound like `rules:` entries; they may see boids, predators, other food and "
        "obstacles (docs/rules.md section 5)")


class Target(Strict):
    """A point the flock follows (the mouse in seed 003); set at run time."""

    x: Number
    y: Number
    active: bool = True


class Ledge(Strict):
    """A horizontal perch at y from x = left to x = right (lab extension)."""

    y: Name
    left: Name
    right: Name


class Scouts(Strict):
    """Two biased groups (seed 001): boids [0, group1) go right, the next group2 go left."""

    group1: Name = Field(description="int parameter: size of scout group 1")
    group2: Name = Field(description="int parameter: size of scout group 2")


class Param(Strict):
    default: Number
    min: Number
    max: Number
    type: Literal["fixed", "int"] = "fixed"
    unit: str = Field("", pattern=r"^[!#-&(-\[\]-_a-~]*$", max_length=16,
                      description="printable ASCII without spaces, quotes, backslash or backtick (the board's "
                      "`list` reply shows it as one token)")
    description: str = Field("", max_length=500)
    tunable: bool = Field(True, description="settable at run time over the serial link")
    id: int | None = Field(None, ge=0, le=255, description="slider id for the course's `s ID VALUE` form")


Pin = Annotated[str, Field(pattern=r"^R[AB][0-9]{1,2}$", description=(
    f"a pin of the {PART} in its 28-pin package: {', '.join(sorted(PACKAGE_PIN, key=lambda n: (n[1], int(n[2:]))))}"
    f" ({'; '.join(f'no {k}: {v}' for k, v in NOT_ON_PART.items())})"))]


class BoardTft(Strict):
    dc: Pin = "RB0"
    cs: Pin = "RB1"
    rst: Pin = "RB2"
    sdo: Pin = Field("RB11", description="SDO1 (MOSI); SCK1 is fixed on RB14")
    madctl: int = Field(0x28, ge=0, le=255, description="ILI9340 memory access control (0x28: landscape)")


def _on_header(pin: int, count: int = 1, what: str = "") -> int:
    """pin (and the count - 1 pins after it) on the Pico's header, else a located error naming them."""
    off = rp2040_pins.missing(pin, count)
    if off:
        why = "; ".join(f"GP{p}: {rp2040_pins.why_not(p)}" for p in off)
        raise PydanticCustomError("pin_off_header", "{what}{pins} not on the Pico's header ({why}); the header "
                                  "carries {header}", {"what": what, "why": why, "header": rp2040_pins.HEADER_TEXT,
                                                       "pins": ", ".join(f"GP{p}" for p in off)
                                                       + (" is" if len(off) == 1 else " are")})
    return pin


Gpio = Annotated[int, Field(ge=0, le=28, description="an RP2040 GPIO (GPn) on the Pico's header: "
                            f"{rp2040_pins.HEADER_TEXT} (GP23-GP25 and GP29 are wired on the board)"),
                 AfterValidator(_on_header)]


class BoardRp2040(Strict):
    """The Pico's wiring: VGA from PIO (the course's lab: HSYNC GP16, VSYNC GP17, then green low, green
    high, blue, red on four consecutive GPIOs from GP18) and UART0 (GP0 TX, GP1 RX)."""

    hsync: Gpio = 16
    vsync: Gpio = 17
    rgb_base: Gpio = Field(18, description="the first of 4 consecutive GPIOs on the Pico's header (GP0-GP19 "
                           "as the first: GP23-GP25 are not on it): green low, green high, blue, red")
    uart_tx: Literal[0, 12, 16, 28] = Field(0, description="UART0 TX: GP0, GP12, GP16 or GP28")
    uart_rx: Literal[1, 13, 17] = Field(1, description="UART0 RX: GP1, GP13 or GP17")

    @field_validator("rgb_base", mode="after")
    @classmethod
    def rgb_run_on_header(cls, v: int) -> int:
        return _on_header(v, rp2040_pins.RGB_PINS, f"rgb_base {v} needs GP{v}-GP{v + rp2040_pins.RGB_PINS - 1}: ")

    @model_validator(mode="after")
    def pins_apart(self):
        used: dict[int, str] = {}
        rgb = range(self.rgb_base, self.rgb_base + rp2040_pins.RGB_PINS)
        for name, pins in (("hsync", [self.hsync]), ("vsync", [self.vsync]), ("uart_tx", [self.uart_tx]),
                           ("uart_rx", [self.uart_rx]), ("rgb_base", rgb)):
            for pin in pins:
                if pin in used:
                    raise PydanticCustomError("pin_twice", "GP{pin} is both {a} and {b}",
                                              {"pin": pin, "a": used[pin], "b": name})
                used[pin] = name
        return self


class BoardUart(Strict):
    rx: Pin = Field("RA1", description="U2RX")
    tx: Pin = Field("RB10", description="U2TX")


BoardTarget = Literal[registry.boards()]  # the boards a spec can be built for (codegen/boards/registry.py)


class Board(Strict):
    """The board(s) the firmware is for and their wiring (defaults: the ECE 4760 course's PIC32MX250F128B
    board; `rp2040:` the course's Raspberry Pi Pico with its VGA screen, codegen/targets/rp2040/)."""

    target: BoardTarget | list[BoardTarget] = Field(
        registry.DEFAULT_BOARD, description="the board, or a list of boards, `boidsgen build` makes firmware for "
        "(`--target` overrides it)")
    rp2040: BoardRp2040 = BoardRp2040()

    @model_validator(mode="after")
    def targets_once(self):
        if isinstance(self.target, list) and (not self.target or len(set(self.target)) != len(self.target)):
            raise PydanticCustomError("targets", "board.target lists each board once, at least one")
        return self

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple(self.target) if isinstance(self.target, list) else (self.target,)

    spi_hz: int = Field(20_000_000, ge=1_000_000, le=20_000_000, description="TFT SPI clock")
    tft: BoardTft = BoardTft()
    uart: BoardUart = BoardUart()


# board sections named after their target (board.rp2040: the Pico's wiring); the PIC32's wiring predates them
BOARD_SECTIONS = tuple(name for name in Board.model_fields if name in registry.TARGETS)


class Performance(Strict):
    """Speed options of the generated firmware (the simulator keeps its own methods)."""

    grid: bool = Field(
        False, description="spatial index in the firmware's pair loop: the boids sorted into horizontal "
        "bands at least the pair box tall and by x within each band; each boid tests only the window of its "
        "own band and the bands above and below that its x can reach; needs update_order: synchronous")
    optimize: Literal["fast", "plain"] = Field(
        "fast", description="fast: every optimisation pass of the target (codegen/passes/; widths, each pair "
        "once, window sums, mean tables, GCC -O1 scheduling hints, ...); plain: none of them: the seed's one pair "
        "loop over both sides of every pair, its zone tests, the sums' widths the range analysis needs, no "
        "guarded copies, short enough to read and change by hand. Both are bit-exact with the simulator, which "
        "does not depend on this key")
    grid_min_cell: int = Field(
        16, ge=4, le=4096, description="smallest grid cell side, pixels: sizes the cell arrays at compile "
        "time (ceil(width / this) x ceil(height / this) cells); a smaller range still uses cells this big")


class Serial(Strict):
    baud: int = Field(115200, gt=0, description="a standard UART rate the PIC32 makes within 3% at 40 MHz")
    line_max: int = Field(64, ge=16, le=255, description="longest command line accepted")


# ---- rules: a rule is defined once, in the rule language (codegen/lang),
# ---- in the library (codegen/rules/defs/<rule>.yaml) or in the spec's
# ---- rule_defs; `rules:` lists the ones to run and binds their roles.


class NeighboursDef(Strict):
    of: Literal["boids", "predators", "obstacles", "food"]
    within: Name | None = Field(None, description="a fixed role: neighbours closer than it")
    zone: Literal["protected", "visual"] | None = Field(
        None, description="join the seed's zone chain (protected, else visual, inside the box test)")
    coincident: bool = Field(True, description="false: leave out neighbours at the boid's own position")
    pick: Literal["all", "nearest"] = "all"


class StateDecl(Strict):
    """A state's long form: `{init: 0, shared: true}` says other rules may
    declare the same name (with the same type and initial value) and share it."""

    init: Union[int, float, str]
    shared: bool = False


class RuleDefinition(Strict):
    """A rule in the rule language (docs/rules.md): roles, what it reads, and
    its blocks of Python-like statements."""

    description: str = Field(max_length=500)
    seed: str = Field("", max_length=40, description="the seed text the rule follows")
    override: bool = Field(False, description="true: this definition replaces the library rule of the same name")
    roles: dict[Name, Literal["fixed", "int", "bool"]] = Field(default_factory=dict)
    neighbours: NeighboursDef | None = None
    uses: list[Literal["target", "ledge", "scouts"]] = Field(default_factory=list)
    state: dict[Name, Union[int, float, str, StateDecl]] = Field(
        default_factory=dict, description="per-boid state: name -> initial value, or {init:, shared: true}")
    before: str | None = Field(None, description="per boid, ahead of the neighbours; `return` ends its frame")
    each: str | None = Field(None, description="per neighbour in range")
    apply: str = Field(description="per boid, once")


class Spec(Strict):
    # every rule the spec can use by name, compiled (codegen/model/rule_set.py);
    # set by the loader, carried by model_copy into variants
    _rules: dict = PrivateAttr(default_factory=dict)

    name: Name
    description: str = Field("", max_length=4000)
    display: Display = Display()
    fixed_point: FixedPoint = FixedPoint()
    frame_rate: int = Field(30, ge=1, le=1000)
    flock: Flock = Flock()
    seed: int = Field(1, ge=0, le=0xFFFFFFFF)
    update_order: Literal["sequential", "synchronous"] = "sequential"
    move_by: Literal["new_velocity", "previous_velocity"] = Field(
        "new_velocity", description="a boid moves by the velocity its rules just computed (seeds 000-002, "
        "004), or by the one it started the frame with (seed 003's position + velocity before the update)")
    params: dict[Name, Param]
    spawn: Spawn
    rule_defs: dict[Name, RuleDefinition] = Field(
        default_factory=dict, description="the spec's own rules, in the rule language (docs/rules.md)")
    rules: list[RuleUse] = Field(min_length=1)
    predators: Predators | None = None
    obstacles: Obstacles | None = None
    food: Food | None = None
    target: Target | None = None
    ledge: Ledge | None = None
    scouts: Scouts | None = None
    serial: Serial = Serial()
    course: Course | None = Field(
        None, description="the course's Python interface: the firmware command line each button, toggle, list "
        "box item and radio button runs")
    board: Board = Board()
    performance: Performance = Performance()
