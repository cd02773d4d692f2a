"""All of kmrag's Cypher, as small functions returning query text.

Every value is a ``$parameter``. The only text ever formatted into a query is a relationship
type that passed :func:`kmrag.schema.sanitize.check_identifier` or a fixed clause of this module chosen
by a flag. Every query is scoped by ``$tenant``.
"""

from __future__ import annotations

from kmrag.schema.sanitize import check_identifier

UNIT_LINK_TYPES = ("NEXT", "PARENT_SECTION", "REFERENCES")
MENTION_TYPES = ("MENTIONS", "DEFINES")
# e.aliases_text feeds the full-text index kmrag_entity_names; set after every change of e.aliases.
_ALIASES_TEXT = "reduce(t = '', a IN e.aliases | t + ' ' + a)"


def merge_sources() -> str:
    return """
    UNWIND $rows AS row
    MERGE (s:Source {tenant: $tenant, id: row.id})
    SET s.uri = row.uri, s.version = row.version, s.content_hash = row.content_hash,
        s.ingested_at = row.ingested_at
    """


def merge_units() -> str:
    return """
    UNWIND $rows AS row
    MERGE (u:Unit {id: row.id})
    ON CREATE SET u.tenant = $tenant
    WITH u, row WHERE u.tenant = $tenant
    SET u.source_id = row.source_id, u.source_version = row.source_version, u.type = row.type,
        u.title = row.title, u.section_path = row.section_path, u.ordinal = row.ordinal,
        u.content = row.content, u.language = row.language
    WITH u, row
    MATCH (s:Source {tenant: $tenant, id: row.source_id})
    MERGE (u)-[:PART_OF]->(s)
    """


def merge_unit_links(kind: str) -> str:
    rel = check_identifier(kind, "unit link kind")
    if rel not in UNIT_LINK_TYPES:
        raise ValueError(f"unknown unit link kind {kind!r}")
    return f"""
    UNWIND $rows AS row
    MATCH (a:Unit {{id: row.src, tenant: $tenant}})
    MATCH (b:Unit {{id: row.dst, tenant: $tenant}})
    MERGE (a)-[:{rel}]->(b)
    """


def delete_unit_links() -> str:
    """Links leaving a source's units: rewritten whole when the source changes."""
    return """
    MATCH (u:Unit {tenant: $tenant, source_id: $source_id})-[l:NEXT|PARENT_SECTION|REFERENCES]->(:Unit)
    DELETE l
    RETURN count(*) AS deleted
    """


def merge_entities() -> str:
    """``e.alias_keys[i]`` is the resolution key of ``e.aliases[i]`` (computed in Python by
    canonical_entity_name). Each entity id occurs once per batch (the store merges duplicates), and the
    keys are set in their own clause before the aliases, both from the old ``e.aliases``."""
    return f"""
    UNWIND $rows AS row
    MERGE (e:Entity {{id: row.id}})
    ON CREATE SET e.tenant = $tenant, e.aliases = [], e.alias_keys = []
    WITH e, row WHERE e.tenant = $tenant
    SET e.name = row.name, e.type = row.type, e.key = row.key,
        e.alias_keys = e.alias_keys + [i IN range(0, size(row.aliases) - 1)
                                       WHERE NOT row.aliases[i] IN e.aliases | row.alias_keys[i]]
    SET e.aliases = e.aliases + [a IN row.aliases WHERE NOT a IN e.aliases]
    SET e.aliases_text = {_ALIASES_TEXT}
    """


def remove_entity_alias() -> str:
    return f"""
    MATCH (e:Entity {{id: $entity_id, tenant: $tenant}})
    WHERE $alias IN e.aliases
    SET e.alias_keys = [i IN range(0, size(e.aliases) - 1) WHERE e.aliases[i] <> $alias | e.alias_keys[i]]
    SET e.aliases = [a IN e.aliases WHERE a <> $alias]
    SET e.aliases_text = {_ALIASES_TEXT}
    RETURN count(e) AS changed
    """


def _mention_type(kind: str) -> str:
    rel = check_identifier(kind, "mention kind")
    if rel not in MENTION_TYPES:
        raise ValueError(f"unknown mention kind {kind!r}")
    return rel


def merge_mentions(kind: str) -> str:
    rel = _mention_type(kind)
    return f"""
    UNWIND $rows AS row
    MATCH (u:Unit {{id: row.unit_id, tenant: $tenant}})
    MATCH (e:Entity {{id: row.entity_id, tenant: $tenant}})
    MERGE (u)-[:{rel}]->(e)
    """


def merge_relations() -> str:
    """Relationship types come as ``row.type``, each checked by the sanitiser before it is sent
    (Neo4j 5.26 dynamic types: the type is a parameter, never query text)."""
    return """
    UNWIND $rows AS row
    MATCH (s:Entity {id: row.subject_id, tenant: $tenant})
    MATCH (o:Entity {id: row.object_id, tenant: $tenant})
    MERGE (s)-[r:$(row.type) {id: row.id}]->(o)
    ON CREATE SET r.tenant = $tenant, r.kind = 'relation', r.predicate = row.predicate,
                  r.confidence = row.confidence, r.unit_ids = row.unit_ids, r.sentences = row.sentences
    ON MATCH SET r.unit_ids = r.unit_ids + [x IN row.unit_ids WHERE NOT x IN r.unit_ids],
                 r.sentences = r.sentences + [x IN row.sentences WHERE NOT x IN r.sentences],
                 r.confidence = CASE WHEN row.confidence > r.confidence THEN row.confidence ELSE r.confidence END
    """


def move_mentions(kind: str) -> str:
    """Units mentioning (or defining) entity $absorbed come to mention (define) $target as well."""
    rel = _mention_type(kind)
    return f"""
    MATCH (u:Unit {{tenant: $tenant}})-[:{rel}]->(:Entity {{id: $absorbed, tenant: $tenant}})
    MATCH (t:Entity {{id: $target, tenant: $tenant}})
    MERGE (u)-[:{rel}]->(t)
    """


def absorb_entity() -> str:
    """$add (names, deduplicated) and $add_keys (their keys) join the target's aliases, except the target's
    own name and aliases it has; then the absorbed entity goes with every edge it still has."""
    return f"""
    MATCH (a:Entity {{id: $absorbed, tenant: $tenant}})
    MATCH (e:Entity {{id: $target, tenant: $tenant}})
    SET e.alias_keys = e.alias_keys + [i IN range(0, size($add) - 1)
                                       WHERE NOT $add[i] IN e.aliases AND $add[i] <> e.name | $add_keys[i]]
    SET e.aliases = e.aliases + [x IN $add WHERE NOT x IN e.aliases AND x <> e.name]
    SET e.aliases_text = {_ALIASES_TEXT}
    DETACH DELETE a
    RETURN count(*) AS absorbed
    """


def merge_answer() -> str:
    return """
    MERGE (a:Answer {id: $row.id})
    ON CREATE SET a.tenant = $tenant
    WITH a WHERE a.tenant = $tenant
    SET a.question = $row.question, a.text = $row.text, a.created_at = $row.created_at
    WITH a
    UNWIND $row.unit_ids AS uid
    MATCH (u:Unit {id: uid, tenant: $tenant})
    MERGE (a)-[:CITES]->(u)
    """


def unit_ids() -> str:
    return """
    MATCH (u:Unit {tenant: $tenant})
    WHERE $source_id IS NULL OR u.source_id = $source_id
    RETURN u.id AS id
    """


def source_ids() -> str:
    return "MATCH (s:Source {tenant: $tenant}) RETURN s.id AS id"


def source_versions() -> str:
    return "MATCH (s:Source {tenant: $tenant}) RETURN s.id AS id, s.version AS version"


def units_per_source() -> str:
    return """
    MATCH (u:Unit {tenant: $tenant})
    RETURN u.source_id AS id, count(u) AS units,
           count(CASE WHEN EXISTS { (u)-[:MENTIONS|DEFINES]->(:Entity) } THEN 1 END) AS mentioned_units
    """


def strip_relation_provenance() -> str:
    """Remove retired units from relation provenance; drop relations left without any."""
    return """
    MATCH (:Entity {tenant: $tenant})-[r {kind: 'relation'}]->(:Entity {tenant: $tenant})
    WHERE any(x IN r.unit_ids WHERE x IN $ids)
    SET r.unit_ids = [x IN r.unit_ids WHERE NOT x IN $ids]
    WITH r WHERE size(r.unit_ids) = 0
    DELETE r
    RETURN count(*) AS dropped
    """


def delete_units() -> str:
    return """
    UNWIND $ids AS uid
    MATCH (u:Unit {id: uid, tenant: $tenant})
    DETACH DELETE u
    RETURN count(*) AS deleted
    """


def delete_orphan_entities() -> str:
    return """
    MATCH (e:Entity {tenant: $tenant})
    WHERE NOT (e)--()
    DELETE e
    RETURN count(*) AS deleted
    """


def delete_source_node() -> str:
    return "MATCH (s:Source {tenant: $tenant, id: $source_id}) DETACH DELETE s"


def get_entities() -> str:
    return """
    MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids
    RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases
    ORDER BY e.id
    """


def find_entities() -> str:
    return """
    MATCH (e:Entity {tenant: $tenant})
    WHERE e.key IN $keys OR any(a IN e.alias_keys WHERE a IN $keys)
    RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases
    ORDER BY e.id
    """


def all_entities() -> str:
    return """
    MATCH (e:Entity {tenant: $tenant})
    RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases
    ORDER BY e.id
    """


def entity_relations() -> str:
    """The relations of one entity, either direction: starts from the entity (unique id index), not a scan."""
    return """
    MATCH (e:Entity {id: $entity_id, tenant: $tenant})-[r {kind: 'relation'}]-(:Entity {tenant: $tenant})
    WITH DISTINCT r
    WITH r, startNode(r) AS s, endNode(r) AS o
    RETURN r.id AS id, s.id AS subject_id, o.id AS object_id, type(r) AS type, r.predicate AS predicate,
           r.confidence AS confidence, r.unit_ids AS unit_ids, r.sentences AS sentences
    ORDER BY r.id
    """


def relations() -> str:
    return """
    MATCH (s:Entity {tenant: $tenant})-[r {kind: 'relation'}]->(o:Entity {tenant: $tenant})
    RETURN r.id AS id, s.id AS subject_id, o.id AS object_id, type(r) AS type, r.predicate AS predicate,
           r.confidence AS confidence, r.unit_ids AS unit_ids, r.sentences AS sentences
    ORDER BY r.id
    """


def entity_units() -> str:
    return """
    MATCH (u:Unit {tenant: $tenant})-[:MENTIONS|DEFINES]->(e:Entity {tenant: $tenant})
    WHERE e.id IN $ids
    RETURN e.id AS entity_id, collect(DISTINCT u.id) AS unit_ids
    ORDER BY entity_id
    """


def unit_entities() -> str:
    return """
    MATCH (u:Unit {tenant: $tenant})-[:MENTIONS|DEFINES]->(e:Entity {tenant: $tenant})
    WHERE u.id IN $ids
    RETURN u.id AS unit_id, collect(DISTINCT e.id) AS entity_ids
    ORDER BY unit_id
    """


def entity_hops(cut: bool, co_mention: bool) -> str:
    """Per entity of $ids (with its name): ``rels``, its relations either direction, and with ``co_mention``
    ``cos``, the entities some unit mentions or defines with it and no relation joins it to, each with the
    number of shared units and the first $co_units of them by id. Never self-loops. With ``cut``, each list
    is the first $fanout in step order (relations by id; co-mentions by shared units desc, then entity id);
    otherwise each holds every hop into the entities $into. Expands from each entity on its own (CALL per
    entity), so a hub costs its degree, never a product of degrees. Co-mention candidates are sorted before
    the relation check, which then streams: it runs on about $fanout rows, not on every candidate."""
    limit = "LIMIT $fanout" if cut else ""
    into = "" if cut else "AND o.id IN $into"
    cos = f"""
    CALL (e) {{
      MATCH (e)<-[:MENTIONS|DEFINES]-(u:Unit {{tenant: $tenant}})-[:MENTIONS|DEFINES]->(o:Entity {{tenant: $tenant}})
      WHERE o <> e {into}
      WITH o, count(DISTINCT u) AS shared, collect(DISTINCT u.id) AS units
      ORDER BY shared DESC, o.id
      WITH o, shared, units WHERE NOT EXISTS {{ (e)-[x]-(o) WHERE x.kind = 'relation' }}
      WITH o, shared, units {limit}
      CALL (units) {{ UNWIND units AS uid WITH uid ORDER BY uid LIMIT $co_units RETURN collect(uid) AS first }}
      RETURN collect({{id: o.id, name: o.name, shared: shared, unit_ids: first}}) AS cos
    }}""" if co_mention else "WITH e, rels, [] AS cos"
    return f"""
    UNWIND $ids AS id
    MATCH (e:Entity {{id: id, tenant: $tenant}})
    CALL (e) {{
      MATCH (e)-[r]-(o:Entity {{tenant: $tenant}})
      WHERE r.kind = 'relation' AND r.tenant = $tenant AND o <> e {into}
      WITH r ORDER BY r.id {limit}
      WITH r, startNode(r) AS s, endNode(r) AS t
      RETURN collect({{id: r.id, subject_id: s.id, subject_name: s.name, type: type(r), predicate: r.predicate,
                      object_id: t.id, object_name: t.name, unit_ids: r.unit_ids}}) AS rels
    }}
    {cos}
    RETURN e.id AS id, e.name AS name, rels, cos
    """


def entity_units_first() -> str:
    """Each entity's first $limit units: units defining it first, then by unit id."""
    return """
    MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids
    CALL (e) {
      MATCH (u:Unit {tenant: $tenant})-[m:MENTIONS|DEFINES]->(e)
      WITH u, min(CASE type(m) WHEN 'DEFINES' THEN 0 ELSE 1 END) AS rank
      ORDER BY rank, u.id LIMIT $limit
      RETURN collect(u.id) AS unit_ids
    }
    WITH e, unit_ids WHERE size(unit_ids) > 0
    RETURN e.id AS entity_id, unit_ids
    ORDER BY entity_id
    """


def neighbours() -> str:
    return """
    MATCH (u:Unit {tenant: $tenant}) WHERE u.id IN $ids
    CALL (u) {
      MATCH (u)-[:NEXT]->(n:Unit) RETURN n.id AS nid, 'NEXT' AS kind
      UNION
      MATCH (u)<-[:NEXT]-(n:Unit) RETURN n.id AS nid, 'PREV' AS kind
      UNION
      MATCH (u)-[:PARENT_SECTION]->(n:Unit) RETURN n.id AS nid, 'PARENT_SECTION' AS kind
      UNION
      MATCH (u)<-[:PARENT_SECTION]-(n:Unit) RETURN n.id AS nid, 'CHILD' AS kind
      UNION
      MATCH (u)-[:REFERENCES]-(n:Unit) RETURN n.id AS nid, 'REFERENCES' AS kind
    }
    RETURN u.id AS unit_id, nid AS neighbour_id, kind
    ORDER BY unit_id, neighbour_id, kind
    """


def answer_citations() -> str:
    return """
    MATCH (a:Answer {id: $answer_id, tenant: $tenant})-[:CITES]->(u:Unit)
    RETURN u.id AS id ORDER BY id
    """


def count_nodes() -> str:
    return """
    CALL () { MATCH (s:Source {tenant: $tenant}) RETURN count(s) AS sources }
    CALL () { MATCH (e:Entity {tenant: $tenant}) RETURN count(e) AS entities }
    CALL () { MATCH (:Entity {tenant: $tenant})-[r {kind: 'relation'}]->() RETURN count(r) AS relations }
    CALL () { MATCH (:Unit {tenant: $tenant})-[l:NEXT|PARENT_SECTION|REFERENCES]->() RETURN count(l) AS unit_links }
    CALL () { MATCH (:Unit {tenant: $tenant})-[m:MENTIONS|DEFINES]->() RETURN count(m) AS mentions }
    RETURN sources, entities, relations, unit_links, mentions
    """


def units_by_type() -> str:
    return "MATCH (u:Unit {tenant: $tenant}) RETURN u.type AS type, count(u) AS n"


def delete_tenant_batch() -> str:
    return """
    MATCH (n {tenant: $tenant})
    WITH n LIMIT $batch
    DETACH DELETE n
    RETURN count(*) AS deleted
    """


def server_info() -> str:
    return "CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition"
