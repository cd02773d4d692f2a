// kmrag Neo4j schema: named constraints and indexes, each idempotent. One statement per line group,
// separated by semicolons. Applied by `kmrag init`.
CREATE CONSTRAINT kmrag_unit_id IF NOT EXISTS FOR (u:Unit) REQUIRE u.id IS UNIQUE;
CREATE CONSTRAINT kmrag_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT kmrag_answer_id IF NOT EXISTS FOR (a:Answer) REQUIRE a.id IS UNIQUE;
CREATE CONSTRAINT kmrag_source_key IF NOT EXISTS FOR (s:Source) REQUIRE (s.tenant, s.id) IS UNIQUE;
CREATE INDEX kmrag_unit_tenant_source IF NOT EXISTS FOR (u:Unit) ON (u.tenant, u.source_id);
CREATE INDEX kmrag_entity_tenant_name IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.key);
CREATE INDEX kmrag_answer_tenant IF NOT EXISTS FOR (a:Answer) ON (a.tenant);
CREATE FULLTEXT INDEX kmrag_entity_names IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.aliases_text];
