"""kmrag: knowledge-graph-augmented RAG with citeable knowledge units."""

__version__ = "0.1.0"
