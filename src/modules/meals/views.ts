/** Stored rows → the spec's shapes, for what every meals record shares. Pure: services load, views map. */

type Audited = {
  appId: number;
  createdAt: string;
  modifiedAt: string;
  deletedAt: string | null;
  isDeleted: boolean;
  ordering: number;
};

/** The spec's audit fields (Conventions). */
export const auditView = (r: Audited) => ({
  app_id: r.appId,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
  deleted_at: r.deletedAt,
  is_deleted: r.isDeleted,
  ordering: r.ordering,
});
