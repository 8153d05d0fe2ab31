package io.slotted.server.http.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The error codes: each documented where clients read them, each with an apt status. */
class ErrorCodeTest {
    private static final Pattern CODE = Pattern.compile("`([a-z_]+)`");
    private static final Pattern STATUS = Pattern.compile("\\((\\d{3})\\)");

    /** The README's list of codes, {@code `a`, `b` (400); `c` (401); …}, as code to status. */
    private static Map<String, Integer> documentedCodes() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        String list = readme.substring(readme.indexOf("- Error codes:"));
        list = list.substring(0, list.indexOf(".\n"));
        Map<String, Integer> documented = new HashMap<>();
        for (String group : list.split(";")) {
            Matcher status = STATUS.matcher(group);
            assertThat(status.find()).as(group).isTrue();
            Matcher code = CODE.matcher(group);
            while (code.find()) {
                documented.put(code.group(1), Integer.parseInt(status.group(1)));
            }
        }
        return documented;
    }

    @Test
    void everyCode_isListedInTheModuleReadme_withItsStatus_andNoOtherIs() throws Exception {
        Map<String, Integer> sent = Arrays.stream(ErrorCode.values())
                .collect(Collectors.toMap(ErrorCode::code, ErrorCode::status));

        assertThat(documentedCodes()).isEqualTo(sent);
    }

    @Test
    void aBareStatus_getsItsOwnCode_orTheBadRequestFallback() {
        assertThat(ErrorCode.forBareStatus(404)).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(ErrorCode.forBareStatus(413)).isEqualTo(ErrorCode.BODY_TOO_LARGE);
        assertThat(ErrorCode.forBareStatus(414)).isEqualTo(ErrorCode.URI_TOO_LONG);
        assertThat(ErrorCode.forBareStatus(431)).isEqualTo(ErrorCode.HEADERS_TOO_LARGE);
        assertThat(ErrorCode.forBareStatus(503)).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(ErrorCode.forBareStatus(408)).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(ErrorCode.forBareStatus(505)).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void codes_areLowercaseWords_andOnlyServerStatusesAreServerFaults() {
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(code.code()).matches("[a-z]+(_[a-z]+)*");
            assertThat(code.serverFault()).as(code.name()).isEqualTo(code.status() >= 500);
        }
    }
}
