package io.slotted.server.cli;

import io.slotted.WriteMode;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --mode grouped|direct|buffered}, in lowercase as the contract spells it. */
final class WriteModeConverter implements ITypeConverter<WriteMode> {
    @Override
    public WriteMode convert(String value) {
        try {
            return WriteMode.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("must be grouped, direct or buffered, but was '"
                    + value + "'");
        }
    }
}
