import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Evidence anyone can check: each source keeps the SHA-256 (hex, of the UTF-8 bytes) of the text its claims
// were taken from, and each claim where its evidence span stands in that text, as code point offsets
// [span_start, span_end) (Postgres counts characters in code points, as the service does). Rows stored before
// this migration get both here: the hash of every source, and the offsets of every claim whose evidence span
// occurs verbatim in its source's text (the first occurrence); a claim whose span does not (an older quote
// with whitespace collapsed across a line break) keeps null offsets.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sources').addColumn('content_sha256', 'text').execute();
  await db.schema.alterTable('claims').addColumn('span_start', 'integer').addColumn('span_end', 'integer').execute();
  await sql`update sources set content_sha256 = encode(sha256(convert_to(content, 'UTF8')), 'hex')`.execute(db);
  await sql`
    update claims c
    set span_start = found.at - 1, span_end = found.at - 1 + char_length(c.evidence_span)
    from (
      select c2.id, strpos(s.content, c2.evidence_span) as at
      from claims c2 join sources s on s.id = c2.source_id
      where c2.evidence_span <> ''
    ) found
    where found.id = c.id and found.at > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('claims').dropColumn('span_end').dropColumn('span_start').execute();
  await db.schema.alterTable('sources').dropColumn('content_sha256').execute();
}
