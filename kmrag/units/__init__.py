"""The unit store on PostgreSQL + pgvector: units, sources, jobs, entity-merge records, the tenant
writer lock; dense and BM25 search. Imports only kmrag.schema (and the error root)."""
