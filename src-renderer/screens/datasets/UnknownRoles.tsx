import type { ImportPreview } from '../../../src-shared/owner/datasets.ts';
import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import { likelyRoles, unknownRoles } from './unknown-roles.ts';

/**
 * At the mapping step: the turns' role names that are no chat role, said
 * before the import (each such turn would fail `roles`), with the mapping of
 * the names when the turns make plain which is the user and which the
 * assistant.
 */
export function UnknownRoles({
  preview,
  disabled,
  onChange,
}: {
  preview: ImportPreview;
  disabled: boolean;
  onChange: (mapping: FieldMapping) => void;
}) {
  const samples = preview.rows.map((row) => row.sample);
  const unknown = unknownRoles(samples);
  if (unknown.length === 0) return null;
  const mapping = preview.mapping;
  // Only a mapping that reads a messages array names its roles; a shape's own reader has none.
  const proposal = mapping && 'messages' in mapping.fields ? likelyRoles(samples) : null;
  const named = unknown.map((name) => `“${name}”`).join(', ');
  const example = Object.entries(proposal ?? { [unknown[0] ?? '']: 'user' })
    .map(([name, role]) => `${name}:${role}`)
    .join(',');
  return (
    <div className="banner warn-banner unknown-roles" role="status" data-testid="unknown-roles">
      <p>
        {unknown.length === 1 ? 'The role' : 'The roles'} {named} of the turns{' '}
        {unknown.length === 1 ? 'is' : 'are'} not system, user or assistant: as{' '}
        {unknown.length === 1 ? 'it is' : 'they are'}, every such turn fails <code>roles</code>. Say
        what {unknown.length === 1 ? 'it stands' : 'they stand'} for in <b>roles</b>, e.g.{' '}
        <code>{example}</code>.
      </p>
      {proposal && mapping && (
        <button
          type="button"
          className="button small"
          disabled={disabled}
          onClick={() =>
            onChange({
              ...mapping,
              fields: { ...mapping.fields, roles: { ...mapping.fields.roles, ...proposal } },
            })
          }
        >
          Read{' '}
          {Object.entries(proposal)
            .map(([name, role]) => `${name} as ${role}`)
            .join(', ')}
        </button>
      )}
    </div>
  );
}
