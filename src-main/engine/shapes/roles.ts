/**
 * A dataset's own role names (ShareGPT's `human`/`gpt`, OASST's `prompter`)
 * against the sample's `user`/`assistant`/`system`. Unknown names are kept as
 * the role, so the audit can report them.
 */
export interface RoleVocabulary {
  toRole(name: string): string;
  /** The dataset's name for `role`: the original one when it still means the same role. */
  toName(role: string, original: unknown): string;
}

export function roleVocabulary(names: Readonly<Record<string, string>>): RoleVocabulary {
  const toRole = new Map(Object.entries(names));
  const toName = new Map(Object.entries(names).map(([name, role]) => [role, name]));
  const roleOf = (name: string): string => toRole.get(name) ?? name;
  return {
    toRole: roleOf,
    toName: (role, original) =>
      typeof original === 'string' && roleOf(original) === role
        ? original
        : (toName.get(role) ?? role),
  };
}
