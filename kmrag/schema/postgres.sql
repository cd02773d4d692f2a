-- kmrag PostgreSQL schema. Applied idempotently by `kmrag init`.
-- {dim} is the embedding dimension, an integer validated by kmrag.schema.ddl before substitution.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS kmrag_meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE IF NOT EXISTS kmrag_sources (
    tenant       text        NOT NULL,
    id           text        NOT NULL,
    uri          text        NOT NULL,
    version      text        NOT NULL,
    content_hash text        NOT NULL,
    ingested_at  timestamptz NOT NULL DEFAULT now(),
    metadata     jsonb       NOT NULL DEFAULT '{{}}'::jsonb,
    PRIMARY KEY (tenant, id)
);

CREATE TABLE IF NOT EXISTS kmrag_units (
    tenant         text        NOT NULL,
    id             text        NOT NULL,
    source_id      text        NOT NULL,
    source_version text        NOT NULL,
    type           text        NOT NULL CHECK (type IN ('section','paragraph','table','definition','step','rule','code')),
    title          text        NOT NULL DEFAULT '',
    section_path   text[]      NOT NULL DEFAULT '{{}}',
    ordinal        integer     NOT NULL,
    content        text        NOT NULL,
    metadata       jsonb       NOT NULL DEFAULT '{{}}'::jsonb,
    embedding      vector({dim}),
    mentions       integer,
    search_title   text,
    search_text    text,
    tsv            tsvector GENERATED ALWAYS AS ({tsv}) STORED,
    created_at     timestamptz NOT NULL DEFAULT now(),
    retired_at     timestamptz,
    PRIMARY KEY (tenant, id)
);

-- entities the unit mentions (as written to the graph): lets `kmrag repair` see a graph that lost them
ALTER TABLE kmrag_units ADD COLUMN IF NOT EXISTS mentions integer;

-- search keys of text without spaces (CJK runs segmented into words); NULL: the title / content itself.
-- A database made before them gets its tsv column rebuilt on their expression by PgUnitStore.init_schema.
ALTER TABLE kmrag_units ADD COLUMN IF NOT EXISTS search_title text;
ALTER TABLE kmrag_units ADD COLUMN IF NOT EXISTS search_text text;

-- the 'code' unit type: a table created before it has the old CHECK (PostgreSQL named it
-- kmrag_units_type_check), replaced by one that admits it, under the same name, whatever was there.
-- NOT VALID: the rows already stored passed the stricter old check, so no table scan on every init
ALTER TABLE kmrag_units DROP CONSTRAINT IF EXISTS kmrag_units_type_check;
ALTER TABLE kmrag_units ADD CONSTRAINT kmrag_units_type_check
    CHECK (type IN ('section','paragraph','table','definition','step','rule','code')) NOT VALID;

CREATE INDEX IF NOT EXISTS kmrag_units_source_idx ON kmrag_units (tenant, source_id);
CREATE INDEX IF NOT EXISTS kmrag_units_title_idx ON kmrag_units (tenant, lower(title));
CREATE INDEX IF NOT EXISTS kmrag_units_tsv_gin ON kmrag_units USING gin (tsv);
CREATE INDEX IF NOT EXISTS kmrag_units_embedding_hnsw ON kmrag_units USING hnsw (embedding vector_cosine_ops);

CREATE TABLE IF NOT EXISTS kmrag_jobs (
    tenant      text        NOT NULL,
    id          text        NOT NULL,
    inputs      jsonb       NOT NULL DEFAULT '[]'::jsonb,
    status      text        NOT NULL,
    counts      jsonb       NOT NULL DEFAULT '{{}}'::jsonb,
    errors      jsonb       NOT NULL DEFAULT '[]'::jsonb,
    timings     jsonb       NOT NULL DEFAULT '{{}}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    PRIMARY KEY (tenant, id)
);

CREATE TABLE IF NOT EXISTS kmrag_answers (
    tenant     text        NOT NULL,
    id         text        NOT NULL,
    question   text        NOT NULL,
    text       text        NOT NULL,
    citations  jsonb       NOT NULL DEFAULT '[]'::jsonb,
    trace      jsonb       NOT NULL DEFAULT '[]'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, id)
);

-- the answer side (issue 9): the direct answer, the cited statements, how it was made
ALTER TABLE kmrag_answers ADD COLUMN IF NOT EXISTS direct text;
ALTER TABLE kmrag_answers ADD COLUMN IF NOT EXISTS statements jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE kmrag_answers ADD COLUMN IF NOT EXISTS confidence real NOT NULL DEFAULT 0;
ALTER TABLE kmrag_answers ADD COLUMN IF NOT EXISTS generator text NOT NULL DEFAULT '';
ALTER TABLE kmrag_answers ADD COLUMN IF NOT EXISTS strategy text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS kmrag_answers_created_idx ON kmrag_answers (tenant, created_at DESC);

CREATE TABLE IF NOT EXISTS kmrag_entity_merges (
    tenant     text        NOT NULL,
    entity_id  text        NOT NULL,
    alias      text        NOT NULL,
    method     text        NOT NULL,
    score      real        NOT NULL DEFAULT 1,
    job_id     text,
    created_at timestamptz NOT NULL DEFAULT now(),
    undone_at  timestamptz,
    PRIMARY KEY (tenant, entity_id, alias)
);

-- the vocabulary of entity names (name and aliases, by resolution key), embedded for question linking;
-- synchronised with the graph at the end of every job that changes entities
CREATE TABLE IF NOT EXISTS kmrag_entity_names (
    tenant    text NOT NULL,
    key       text NOT NULL,
    name      text NOT NULL,
    embedding vector({dim}) NOT NULL,
    PRIMARY KEY (tenant, key)
);
CREATE INDEX IF NOT EXISTS kmrag_entity_names_hnsw ON kmrag_entity_names USING hnsw (embedding vector_cosine_ops);
-- the embedder each tenant's vectors (units and entity names) were made with; a tenant without a row was made
-- before these were recorded: with all-MiniLM-L6-v2 if it holds units. reembed_to / reembed_dim: a
-- `kmrag reembed` under way (its vectors wait in the two tables below until they are swapped in at once)
CREATE TABLE IF NOT EXISTS kmrag_tenant_embedders (
    tenant      text        PRIMARY KEY,
    embedder    text        NOT NULL,
    dim         integer     NOT NULL,
    reembed_to  text,
    reembed_dim integer,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- vectors of a `kmrag reembed` under way, per unit and per entity name, with the hash of the text they were
-- made from (a text changed since is embedded again); no index: they are never searched
CREATE TABLE IF NOT EXISTS kmrag_reembed_units (
    tenant    text NOT NULL,
    id        text NOT NULL,
    text_hash text NOT NULL,
    embedding vector({dim}) NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE TABLE IF NOT EXISTS kmrag_reembed_names (
    tenant    text NOT NULL,
    key       text NOT NULL,
    text_hash text NOT NULL,
    embedding vector({dim}) NOT NULL,
    PRIMARY KEY (tenant, key)
);

-- BM25 term statistics, kept by PgUnitStore in the same transaction as every unit write (upsert,
-- retire, delete), over the tenant's active units only, so a query's cost does not grow with the corpus:
-- totals: how many active units and their summed length (distinct lexemes, as length(tsv));
-- terms: each lexeme's document frequency, with a surrogate id for the postings;
-- postings: one row per (lexeme, active unit), keyed by the unit's term weight at a reference length
-- (its impact), so "the M units where this term weighs most" is one index range scan.
CREATE TABLE IF NOT EXISTS kmrag_bm25_totals (
    tenant    text   PRIMARY KEY,
    n         bigint NOT NULL DEFAULT 0,
    total_len bigint NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS kmrag_bm25_terms (
    tenant text    NOT NULL,
    lexeme text    NOT NULL,
    id     bigint  GENERATED ALWAYS AS IDENTITY UNIQUE,
    df     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant, lexeme)
);

CREATE TABLE IF NOT EXISTS kmrag_bm25_postings (
    term_id bigint NOT NULL,
    impact  real   NOT NULL,
    unit_id text   NOT NULL,
    PRIMARY KEY (term_id, impact, unit_id)
);

-- API keys of the HTTP API (`kmrag keys`): a key is kmrag_<key_id>_<secret>; only the SHA-256 of the
-- secret is kept. A key reads and writes its tenant only; a revoked key stops working at once.
CREATE TABLE IF NOT EXISTS kmrag_api_keys (
    key_id       text        PRIMARY KEY,
    tenant       text        NOT NULL,
    name         text        NOT NULL DEFAULT '',
    secret_hash  text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
-- the folder a key may ingest paths from (`kmrag keys create --ingest-root DIR`); NULL: the server's root
ALTER TABLE kmrag_api_keys ADD COLUMN IF NOT EXISTS ingest_root text;
CREATE INDEX IF NOT EXISTS kmrag_api_keys_tenant_idx ON kmrag_api_keys (tenant, created_at);
