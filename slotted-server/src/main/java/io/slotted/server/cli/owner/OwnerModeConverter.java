package io.slotted.server.cli.owner;

import io.slotted.OwnerMode;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --mode fold|copy} of {@code slotted adopt}, in lowercase as the contract spells it. */
final class OwnerModeConverter implements ITypeConverter<OwnerMode> {
    @Override
    public OwnerMode convert(String value) {
        try {
            return OwnerMode.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("must be fold or copy, but was '" + value + "'");
        }
    }

    /**
     * A mode as the command line spells it.
     *
     * @param mode the mode
     * @return {@code fold} or {@code copy}
     */
    static String label(OwnerMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}
