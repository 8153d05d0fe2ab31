package io.slotted.server.config;

import io.slotted.SlottedCountersBuilder;

/**
 * The bounds on names clients create by using them: new string ids per second in this process,
 * and type names in the whole dictionary. They keep a client from filling the name dictionary;
 * names already recorded are never refused.
 *
 * @param newIdsPerSecond new string ids this process records per second at most, 1 to 1,000,000
 * @param maxTypeNames type names the dictionary may hold, 0 to 1,000,000
 */
public record NameBounds(int newIdsPerSecond, int maxTypeNames) {
    /** The library's defaults: 10,000 new ids per second, 1,000 type names. */
    public static final NameBounds DEFAULTS = new NameBounds(
            SlottedCountersBuilder.DEFAULT_NEW_NAMES_PER_SECOND, SlottedCountersBuilder.DEFAULT_MAX_TYPE_NAMES);
}
