"""Seeded mutators that inject exactly one defect each, and frozen mutation files."""

from hybridjudge.mutations._errors import MutationRefused
from hybridjudge.mutations._freeze import (
    MUTATIONS_FORMAT,
    MUTATIONS_FORMAT_VERSION,
    MUTATOR_PRODUCER,
    MutationHeader,
    MutationSet,
    Refusal,
    StaleMutationsError,
    derive_seed,
    generate_mutations,
    load_mutations,
    write_mutations,
)
from hybridjudge.mutations._mutators import (
    MUTATOR_VERSIONS,
    MUTATORS,
    Mutant,
    Mutator,
    contradiction,
    fabricated_number,
    inversion,
    non_abstention,
    omission,
)
from hybridjudge.mutations._verify import verify_mutant

__all__ = [
    "MUTATIONS_FORMAT",
    "MUTATIONS_FORMAT_VERSION",
    "MUTATORS",
    "MUTATOR_PRODUCER",
    "MUTATOR_VERSIONS",
    "Mutant",
    "MutationHeader",
    "MutationRefused",
    "MutationSet",
    "Mutator",
    "Refusal",
    "StaleMutationsError",
    "contradiction",
    "derive_seed",
    "fabricated_number",
    "generate_mutations",
    "inversion",
    "load_mutations",
    "non_abstention",
    "omission",
    "verify_mutant",
    "write_mutations",
]
