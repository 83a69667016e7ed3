/**
 * Wall-clock dates and times in an IANA zone, for the seed and the test factories. The logic lives in
 * app/lib/slots.ts (shared with the booking screens and the server); this module only re-exports it.
 */
export {
  addDays,
  addMinutesToTime,
  dateInZone,
  dayOfWeek,
  nthMatchingDay,
  WEEKDAYS,
  zonedTimeToInstant,
  zoneOffsetMs,
} from "../../app/lib/slots";
