import { z } from 'zod';

export const PLANS = ['trial', 'lifetime', 'pro'] as const;
export const PlanSchema = z.enum(PLANS);
export type Plan = z.infer<typeof PlanSchema>;

/** SPEC §3 User. Dates travel as ISO strings; `trialExpires` may be absent or null. */
export const UserSchema = z.object({
  id: z.union([z.string(), z.number()]),
  email: z.string(),
  plan: PlanSchema,
  isAdmin: z.boolean().default(false),
  createdAt: z.string(),
  lastLogin: z.string().nullable().optional(),
  trialExpires: z.string().nullable().optional(),
  /**
   * The address was proved (the sign-up link, or a password reset). The server always sends it;
   * users stored by older builds lack it. Admin rights of ADMIN_EMAILS need it.
   */
  emailVerified: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** Login and signup responses carry a token and a user. */
export const AuthResponseSchema = z.object({ token: z.string(), user: UserSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const LicenseDetailsSchema = z.object({
  activatedAt: z.string().nullable().optional(),
  currency: z.string().nullable().optional(),
  amount: z.number().nullable().optional(),
});
export type LicenseDetails = z.infer<typeof LicenseDetailsSchema>;

export const LicenseStatusSchema = z.object({
  hasActiveLicense: z.boolean(),
  licenseDetails: LicenseDetailsSchema.nullable().optional(),
});
export type LicenseStatus = z.infer<typeof LicenseStatusSchema>;

/** SPEC §3 Admin stats: the revenue total is read as revenueTotal and as totalRevenue (both readings). */
export const AdminStatsSchema = z.object({
  totalUsers: z.number(),
  trialUsers: z.number(),
  lifetimeUsers: z.number(),
  revenueTotal: z.number().optional(),
  totalRevenue: z.number().optional(),
});
export type AdminStats = z.infer<typeof AdminStatsSchema>;
