// drizzle-kit writes REFERENCES "public"."table"; unqualified names let one migration set serve
// any schema (the integration tests give every test file its own schema on PostgreSQL).
import fs from 'node:fs';
const dir = 'src/server/db/migrations';
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
  const sql = fs.readFileSync(`${dir}/${f}`, 'utf8');
  const out = sql.replaceAll('"public".', '');
  if (out !== sql) fs.writeFileSync(`${dir}/${f}`, out);
}
