/** An expert's public profile: /{customUrl} when they have one, else /expert/{id} (SPEC.md). */
export function publicProfilePath(profile: { id: number; customUrl: string | null }): string {
  return profile.customUrl ? `/${profile.customUrl}` : `/expert/${profile.id}`;
}
