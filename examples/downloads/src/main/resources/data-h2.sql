MERGE INTO repositories (id, name) KEY (id) VALUES
  (1, 'slotted'), (2, 'hikari'), (3, 'caffeine'), (4, 'jdbi'), (5, 'resilience4j');
