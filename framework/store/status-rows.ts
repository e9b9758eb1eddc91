import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { insertRows, selectRows, updateRows } from './migration-schema';

/** A status as migrations create it when it is missing. */
export interface StatusSeed {
  slug: string;
  name: string;
  color: string;
}

/** A new extras_status row. */
export function statusRow(seed: StatusSeed, contentTypes: string[]): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    created: now.slice(0, 10),
    last_updated: now.replace('T', ' ').replace('Z', ''),
    _custom_field_data: '{}',
    content_types: JSON.stringify([...contentTypes].sort()),
    name: seed.name,
    slug: seed.slug,
    color: seed.color,
  };
}

export function contentTypesOf(row: Record<string, unknown>): string[] {
  try {
    const list = JSON.parse(String(row.content_types)) as unknown;
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Makes a status available to models (content type labels): an existing status gains them and
 * keeps whatever its users changed, a missing one is created. Returns the status's id.
 */
export async function grantStatus(qr: QueryRunner, seed: StatusSeed, contentTypes: string[]): Promise<string> {
  const [row] = await selectRows(qr, 'extras_status', ['id', 'content_types'], { slug: seed.slug });
  if (!row) {
    const created = statusRow(seed, contentTypes);
    await insertRows(qr, 'extras_status', [created]);
    return created.id as string;
  }
  const current = contentTypesOf(row);
  const merged = [...new Set([...current, ...contentTypes])].sort();
  if (merged.length !== current.length) await updateRows(qr, 'extras_status', { content_types: JSON.stringify(merged) }, { id: row.id });
  return String(row.id);
}

/**
 * Takes models' content types off a status; returns what the status is left with (null when
 * there is no such status), so a caller can delete a status of its own that nothing uses.
 */
export async function revokeStatus(qr: QueryRunner, slug: string, contentTypes: string[]): Promise<{ id: string; left: string[] } | null> {
  const [row] = await selectRows(qr, 'extras_status', ['id', 'content_types'], { slug });
  if (!row) return null;
  const current = contentTypesOf(row);
  const left = current.filter((ct) => !contentTypes.includes(ct));
  if (left.length !== current.length) await updateRows(qr, 'extras_status', { content_types: JSON.stringify(left) }, { id: row.id });
  return { id: String(row.id), left };
}
