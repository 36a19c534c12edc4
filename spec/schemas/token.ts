import { z } from 'zod';
import { CredentialFields, Expiration, IsoUtc, Properties, success, Uuid } from './common.ts';

/** §2.5 */
export const Token = z.object({ token: z.string().min(1), expiresAt: IsoUtc });
export type Token = z.infer<typeof Token>;

/** §4.7 */
export const UserTokenBody = z.object({
  ...CredentialFields,
  apiKey: z.string().min(1).optional(),
  userId: Uuid,
  expiration: Expiration.optional(),
});
export const TokenResponse = success(Token);

/** §4.8; the members of organization and user are our decision (tokens.embed-token.body-shape). */
export const EmbedTokenBody = z.object({
  ...CredentialFields,
  projectId: Uuid,
  organization: z.object({
    externalId: z.string().min(1),
    name: z.string().min(1).optional(),
    properties: Properties.optional(),
  }),
  user: z.object({
    id: Uuid.optional(),
    name: z.string(),
    properties: Properties.optional(),
    userRoleId: Uuid.nullable().optional(),
  }),
  expiration: Expiration.optional(),
});
export type EmbedTokenBody = z.infer<typeof EmbedTokenBody>;
export const EmbedTokenResponse = success(
  Token.extend({ userId: Uuid, projectOrganizationId: Uuid }),
);
