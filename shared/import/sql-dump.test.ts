/** The dump reader on the constructs mysqldump and pg_dump write, and on broken input. */
import { describe, expect, it } from 'vitest'
import { detectDialect, parseDump } from './sql-dump'

describe('mysqldump text', () => {
  const dump = `-- MySQL dump 10.13
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
# a hash comment
DROP TABLE IF EXISTS \`users\`;
CREATE TABLE \`users\` (
  \`id\` bigint NOT NULL AUTO_INCREMENT,
  \`username\` varchar(12) DEFAULT NULL COMMENT 'login; name',
  \`group\` varchar(32) DEFAULT 'default',
  \`quota\` int DEFAULT '0',
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`idx_username\` (\`username\`),
  KEY \`idx_group\` (\`group\`)
) ENGINE=InnoDB;
LOCK TABLES \`users\` WRITE;
INSERT INTO \`users\` VALUES (1,'it\\'s; a \\"test\\"\\n\\\\done','default',-5),(2,'O''Brien',NULL,2147483647),(3,_binary 'bin','x',1.5e3);
UNLOCK TABLES;`

  it('reads column order from CREATE TABLE and rows from a multi-row INSERT without a column list', () => {
    const parsed = parseDump(dump)
    expect(parsed.dialect).toBe('mysql')
    expect(parsed.problems).toEqual([])
    const users = parsed.tables.get('users')!
    expect(users.columns).toEqual(['id', 'username', 'group', 'quota'])
    expect(users.rows).toEqual([
      { id: 1, username: 'it\'s; a "test"\n\\done', group: 'default', quota: -5 },
      { id: 2, username: "O'Brien", group: null, quota: 2147483647 },
      { id: 3, username: 'bin', group: 'x', quota: 1500 },
    ])
  })

  it('uses an explicit column list and keeps integers beyond 2^53 exact as text', () => {
    const parsed = parseDump('INSERT INTO `logs` (`id`,`quota`) VALUES (1,9007199254740993),(2,0x414243);')
    expect(parsed.tables.get('logs')!.rows).toEqual([
      { id: 1, quota: '9007199254740993' },
      { id: 2, quota: 'ABC' },
    ])
  })

  it('reports a row of the wrong width and a broken statement with where they are, and goes on', () => {
    const parsed = parseDump(`CREATE TABLE t (a int, b int);\nINSERT INTO t VALUES (1,2),(3);\nINSERT INTO t VALUES (4, FOO);\nINSERT INTO t VALUES (5,6);`)
    expect(parsed.tables.get('t')!.rows).toEqual([
      { a: 1, b: 2 },
      { a: 5, b: 6 },
    ])
    expect(parsed.problems).toHaveLength(2)
    expect(parsed.problems[0]).toMatch(/^t \(statement near line 2\): a row has 1 values for 2 columns/)
    expect(parsed.problems[1]).toMatch(/line 3.*unexpected FOO/)
  })

  it('refuses an unterminated string instead of reading past it', () => {
    const parsed = parseDump("INSERT INTO t (a) VALUES ('open);")
    expect(parsed.tables.get('t')?.rows ?? []).toEqual([])
    expect(parsed.problems).toEqual(["the dump cannot be read past line 1: unterminated ' quote; the rest was not imported"])
  })
})

describe('pg_dump text', () => {
  const dump = `--
-- PostgreSQL database dump
--
SET standard_conforming_strings = on;
CREATE TABLE public.tokens (
    id bigint NOT NULL,
    "key" character varying(59),
    unlimited_quota boolean,
    setting jsonb,
    created timestamp with time zone,
    CONSTRAINT tokens_pkey PRIMARY KEY (id)
);
INSERT INTO public.tokens VALUES (1, 'back\\slash kept', true, '{"a":1}'::jsonb, '2024-01-01 00:00:00+00'::timestamp with time zone);
INSERT INTO public.tokens VALUES (2, E'esc\\'aped\\n', false, NULL, NULL);
COPY public.logs (id, content, is_stream) FROM stdin;
1	tab\\there	t
2	\\N	f
\\.

INSERT INTO "public"."tokens" ("id", "key") VALUES (3, 'it''s');
`

  it('detects PostgreSQL, keeps backslashes literal in standard strings and reads E-strings, casts and COPY', () => {
    expect(detectDialect(dump)).toBe('postgres')
    const parsed = parseDump(dump)
    expect(parsed.problems).toEqual([])
    expect(parsed.tables.get('tokens')!.columns).toEqual(['id', 'key', 'unlimited_quota', 'setting', 'created'])
    expect(parsed.tables.get('tokens')!.rows).toEqual([
      { id: 1, key: 'back\\slash kept', unlimited_quota: true, setting: '{"a":1}', created: '2024-01-01 00:00:00+00' },
      { id: 2, key: "esc'aped\n", unlimited_quota: false, setting: null, created: null },
      { id: 3, key: "it's" },
    ])
    expect(parsed.tables.get('logs')!.rows).toEqual([
      { id: '1', content: 'tab\there', is_stream: 't' },
      { id: '2', content: null, is_stream: 'f' },
    ])
  })
})
