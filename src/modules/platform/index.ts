/** What the app and other modules may use of the platform operations. */

export { platformErrorCodes } from "./errors";
export { platformEvents } from "./events";
