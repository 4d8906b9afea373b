"""Metrics for the rest of the RAG pipeline: retrieval (:mod:`.retrieval`) and ordinal classification (:mod:`.ordinal`)."""
