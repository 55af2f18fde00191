import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import { nowIso } from "../../../core/time";
import { storeIdentitiesOf, storeIdentitiesQuery } from "../../account";
import { citiesByIds, citiesInOrder, citiesQuery } from "../../customers";
import { faceOf } from "../stores";
import { channelProfiles } from "../tables";
import type { ChannelProfile, UpdateChannelProfile } from "./schemas";

/** The channel profile (MX5): one row per store, read with the store's own names where it sets none. */

/** The reads of the profile, for a batch: the row, the store's own names, the row's cities (by a subquery of it). */
function profileReads(ctx: ServiceContext) {
  const p = channelProfiles;
  return [
    ctx.db.select().from(p).where(eq(p.appId, ctx.appId)),
    storeIdentitiesQuery(ctx.db, [ctx.appId]),
    citiesQuery(
      ctx.db,
      sql`SELECT value FROM json_each((SELECT ${p.supportedCityIds} FROM ${p} WHERE ${p.appId} = ${ctx.appId}))`,
    ),
  ] as const;
}

type ProfileRows = readonly [
  (typeof channelProfiles.$inferSelect)[],
  Parameters<typeof storeIdentitiesOf>[0],
  Parameters<typeof citiesInOrder>[0],
];

function profileView(ctx: ServiceContext, [rows, identities, cities]: ProfileRows): ChannelProfile {
  const p = rows[0];
  const face = faceOf(ctx.appId, p, storeIdentitiesOf(identities).get(ctx.appId));
  return {
    ...face,
    description_en: p?.descriptionEn ?? null,
    description_ar: p?.descriptionAr ?? null,
    is_listed: p?.isListed ?? false,
    contact: {
      name: p?.contactName ?? null,
      email: p?.contactEmail ?? null,
      phone: p?.contactPhone ?? null,
      website: p?.website ?? null,
    },
    supported_cities: citiesInOrder(cities, p?.supportedCityIds ?? []),
    modified_at: p?.modifiedAt ?? null,
  };
}

export async function getChannelProfile(ctx: ServiceContext): Promise<ChannelProfile> {
  return profileView(ctx, await ctx.db.batch(profileReads(ctx)));
}

/** Changes the fields given (the first change makes the row); emits `sales_channel.profile_updated`. */
export async function updateChannelProfile(ctx: ServiceContext, body: UpdateChannelProfile): Promise<ChannelProfile> {
  if (body.supported_city_ids?.length) {
    const found = new Set((await citiesByIds(ctx.db, body.supported_city_ids)).map((c) => c.id));
    const missing = body.supported_city_ids.filter((id) => !found.has(id));
    if (missing.length) throw ApiError.validation({ supported_city_ids: [`No such cities: ${missing.join(", ")}.`] });
  }
  const now = nowIso();
  const set = {
    nameEn: body.name_en,
    nameAr: body.name_ar,
    logo: body.logo,
    descriptionEn: body.description_en,
    descriptionAr: body.description_ar,
    isListed: body.is_listed,
    contactName: body.contact?.name,
    contactEmail: body.contact?.email,
    contactPhone: body.contact?.phone,
    website: body.contact?.website,
    supportedCityIds: body.supported_city_ids,
    modifiedAt: now,
  };
  const changes = Object.keys(body).flatMap((k) =>
    k === "contact" ? Object.keys(body.contact ?? {}).map((c) => `contact.${c}`) : [k],
  );
  const { results } = await emit(
    ctx.db,
    ctx.events,
    [
      ctx.db
        .insert(channelProfiles)
        .values({ ...set, appId: ctx.appId, createdAt: now })
        .onConflictDoUpdate({ target: channelProfiles.appId, set }),
    ],
    [newEvent(ctx.appId, "sales_channel.profile_updated", { app_id: ctx.appId, changes })],
    // The profile as the batch left it: the answer.
    { after: profileReads(ctx) },
  );
  return profileView(ctx, results.slice(1) as unknown as ProfileRows);
}
