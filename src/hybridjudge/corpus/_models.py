"""Typed corpus records: gold cases, outputs (bases and mutants), and the case lines of the CLI."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from hybridjudge._anchor import Anchor

__all__ = [
    "ALL_CLASSES",
    "CONTEXT_DEFECT_CLASSES",
    "CONTROL_CLASSES",
    "DEFECT_CLASSES",
    "Anchor",
    "Case",
    "CaseLine",
    "DefectClass",
    "Output",
    "Producer",
]

DefectClass = Literal[
    "omission",
    "fabricated_number",
    "non_abstention",
    "contradiction",
    "inversion",
    "evidence_dropped",
    "distractor",
    "stale_passage",
    "truncated",
    "passages_shuffled",
    "passage_duplicated",
]
"""The classes a mutant can carry: five in the answer (OpenGATE's ``dropped_anchor`` is
``omission``), four in the retrieved context (the retriever's defects, the answer kept) and two
negative controls (the context reordered or one passage repeated; they must change no verdict)."""

DEFECT_CLASSES: tuple[DefectClass, ...] = (
    "omission",
    "fabricated_number",
    "non_abstention",
    "contradiction",
    "inversion",
)
"""The five answer-side classes (the default of ``hybridjudge mutate``)."""

CONTEXT_DEFECT_CLASSES: tuple[DefectClass, ...] = (
    "evidence_dropped",
    "distractor",
    "stale_passage",
    "truncated",
)
"""The retriever's defects: the context changed, the answer kept."""

CONTROL_CLASSES: tuple[DefectClass, ...] = ("passages_shuffled", "passage_duplicated")
"""Negative controls on the context: a verdict change on one of these is a false alarm."""

ALL_CLASSES: tuple[DefectClass, ...] = (*DEFECT_CLASSES, *CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES)
"""Every class a mutant can carry, in report order."""


def _anchor_from_any(value: Any) -> Any:
    """Accept an anchor as a plain string or as ``{value, aliases}``."""
    if isinstance(value, str):
        return {"value": value, "aliases": []}
    return value


AnchorLike = Annotated[Anchor, BeforeValidator(_anchor_from_any)]


def _context_to_passages(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    return value


class Case(BaseModel):
    """A gold evaluation case: what a correct output must and must not do."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(min_length=1)
    """Stable case id."""
    question: str | None = None
    """The question put to the system (``None`` for tasks without one, e.g. simplification)."""
    context: Annotated[tuple[str, ...], BeforeValidator(_context_to_passages)]
    """The retrieved context as passages (a single string becomes one passage)."""
    answerable: bool | None = True
    """Whether the context can answer the question; ``None`` when unknown."""
    anchors: tuple[AnchorLike, ...] = ()
    """Facts a correct output must contain."""
    allowed_numbers: tuple[str, ...] = ()
    """Quantities an output may introduce although the context does not contain them."""
    kind: str = "grounding"
    """Task kind (``grounding``, ``simplification``, ``qa``...)."""
    label_source: str
    """Where the gold labels came from, e.g. ``"opengate datasets/cases (hand-written)"``."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The user's own fields (JSON values), kept as given and carried into the results."""

    def __hash__(self) -> int:
        # metadata holds JSON values (dicts, lists): hash the gold labels only (equal cases
        # still hash equal), so a case stays usable as a cache key
        return hash(
            (
                self.id,
                self.question,
                self.context,
                self.answerable,
                self.anchors,
                self.allowed_numbers,
                self.kind,
                self.label_source,
            )
        )

    @model_serializer(mode="wrap")
    def _omit_empty_metadata(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # shipped corpora have no metadata: their files stay byte for byte as built before
        data: dict[str, Any] = handler(self)
        if not data.get("metadata"):
            data.pop("metadata", None)
        return data


class Producer(BaseModel):
    """Who produced an output."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    system: str
    """The producing system, e.g. ``"patiently"``, ``"halueval"``, ``"hybridjudge.mutations"``."""
    model: str | None = None
    """The model behind it when known."""
    kind: Literal["real", "production", "synthetic"]
    """Real user traffic, a production system's output on gold inputs, or made for evaluation."""


class Output(BaseModel):
    """One output to score: a base output or a mutant carrying exactly one defect."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(min_length=1)
    """Stable output id, e.g. ``"case-x::base"`` or ``"case-x::omission"``."""
    case_id: str
    """The gold case this output answers."""
    text: str
    """The output text exactly as scored."""
    base_id: str | None = None
    """For a mutant, the id of the base output it derives from; ``None`` for a base."""
    defect: DefectClass | None = None
    """The defect this output carries, ``None`` for a base output (see ``clean``)."""
    defect_detail: str | None = None
    """What exactly was injected, e.g. ``'anchor "500 mg" deleted'``."""
    origin: Literal["base", "paper", "mutator", "natural"] = "base"
    """``paper``: a frozen mutant from the OpenGATE paper; ``mutator``: made by
    :mod:`hybridjudge.mutations`; ``natural``: a defect found in the wild (e.g. HaluEval's
    hallucinated answers)."""
    producer: Producer
    """Who produced the output."""
    clean: bool | None = None
    """For a base: its label (``True``: correct, ``False``: incorrect, ``None``: not labelled;
    ``corpus import`` sets it from a record's ``label``). False alarms are counted only on
    bases labelled correct; bases labelled incorrect are the study's ``labelled_incorrect``
    row; unlabelled bases are in no false-alarm rate."""
    context: Annotated[tuple[str, ...] | None, BeforeValidator(_context_to_passages)] = None
    """The context this output is scored against when it is not its case's: a context mutant
    (``evidence_dropped``, ``distractor``...) carries the retrieved context with its defect;
    ``None`` (every answer-side output): the case's context. Left out of the file when
    ``None``, so files without context mutants keep their bytes."""

    @model_serializer(mode="wrap")
    def _omit_own_context(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("context") is None:
            data.pop("context", None)
        return data

    @model_validator(mode="after")
    def _origin_fits(self) -> Output:
        """docs/formats.md: a base has no ``base_id`` and no ``defect``; a mutant names its
        base, and a ``paper`` or ``mutator`` mutant its defect (only a ``natural`` defect may
        be unclassified)."""
        where = f"output {self.id!r}"
        if self.origin == "base":
            if self.defect is not None or self.base_id is not None:
                raise ValueError(
                    f"{where} has origin 'base' (the default) but a "
                    f"{'defect' if self.defect is not None else 'base_id'}: a base output has "
                    "neither; a mutant gives its origin ('paper', 'mutator' or 'natural')"
                )
            return self
        if self.base_id is None:
            raise ValueError(
                f"{where} has origin {self.origin!r} but no base_id: a mutant names the base "
                "output it derives from"
            )
        if self.defect is None and self.origin != "natural":
            raise ValueError(
                f"{where} has origin {self.origin!r} but no defect: give its defect class (one "
                f"of {', '.join(ALL_CLASSES)}); only a 'natural' defect may be unclassified"
            )
        return self


class CaseLine(BaseModel):
    """One line of the case files read by ``hybridjudge check`` and ``hybridjudge judge``.

    OpenGATE's field names ``answerAnchors`` and ``allowedNewNumbers`` are accepted as aliases.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)

    id: str = Field(min_length=1)
    """The case id, echoed in every result."""
    answer: str
    """The answer to check."""
    context: Annotated[tuple[str, ...], BeforeValidator(_context_to_passages)]
    """The context: a string or a list of passages."""
    question: str | None = None
    """The question, when there is one (numbers it contains are traceable)."""
    anchors: tuple[AnchorLike, ...] = Field(default=(), alias="anchors")
    """Required facts; ``answerAnchors`` is accepted as an alias."""
    answerable: bool | None = True
    """``False`` when the context cannot answer; ``None`` when unknown."""
    allowed_numbers: tuple[str, ...] = ()
    """Numbers the answer may introduce; ``allowedNewNumbers`` is accepted as an alias."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The user's own fields (JSON values): extra fields land here and are echoed in results."""

    def __hash__(self) -> int:
        # metadata holds JSON values (dicts, lists): hash everything else
        return hash(
            (
                self.id,
                self.answer,
                self.context,
                self.question,
                self.anchors,
                self.answerable,
                self.allowed_numbers,
            )
        )

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> CaseLine:
        """Validate a decoded JSON object, mapping OpenGATE's field names to ours."""
        renamed = dict(data)
        for theirs, ours in (
            ("answerAnchors", "anchors"),
            ("allowedNewNumbers", "allowed_numbers"),
        ):
            if theirs in renamed:
                if ours in renamed:
                    raise ValueError(f"both {theirs!r} and {ours!r} given; keep one")
                renamed[ours] = renamed.pop(theirs)
        return cls.model_validate(renamed)
