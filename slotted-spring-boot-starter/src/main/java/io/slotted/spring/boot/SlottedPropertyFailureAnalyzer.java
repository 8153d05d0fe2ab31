package io.slotted.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a refused {@code slotted.*} property into Spring Boot's start-up report: what was wrong
 * with which property, and that the fix is to change it.
 */
class SlottedPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSlottedPropertyException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSlottedPropertyException cause) {
        String description = "Slotted could not be configured: the property " + cause.property()
                + (cause.value() == null ? " is missing" : " has the value '" + cause.value() + "'")
                + ", which is refused: " + cause.reason();
        String action = "Change " + cause.property() + " in your application's configuration"
                + " (application.properties, application.yaml or the environment).";
        return new FailureAnalysis(description, action, cause);
    }
}
