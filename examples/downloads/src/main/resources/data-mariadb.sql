INSERT IGNORE INTO repositories (id, name) VALUES
  (1, 'slotted'), (2, 'hikari'), (3, 'caffeine'), (4, 'jdbi'), (5, 'resilience4j');
