/**
 * What the doctor asks each kind of database, in its own SQL: a
 * {@link io.slotted.server.doctor.dialect.DoctorDialect} per database — where its row-lock waits
 * are, which settings decide durability, how the doctor's session travels, what its catalog says
 * of Slotted's tables — picked from core's dialect by
 * {@link io.slotted.server.doctor.dialect.DoctorDialects}, the one place the server tells databases
 * apart.
 */
package io.slotted.server.doctor.dialect;
