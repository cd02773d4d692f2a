"""What ingestion and the query side share about text: the spaCy pipeline (entities, triples),
entity-name keys and coarse types, and the embedders. Imports only kmrag.schema (and the error root)."""
