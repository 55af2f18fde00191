/** Every permission a merchant API token can carry (the spec's, plus those the peer system uses). */
export const PERMISSIONS = [
  "can_read_order",
  "can_write_order",
  "can_read_item",
  "can_write_item",
  "can_read_shipment",
  "can_write_shipment",
  "can_retrieve_app_config",
  "can_update_app_config",
  "can_read_sales_channels",
  "can_write_sales_channels",
  "can_read_audit_log",
  "can_manage_api_keys",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Merchant tokens start with this, so that secret scanners and people can recognise them. */
export const TOKEN_PREFIX = "cmk_";
