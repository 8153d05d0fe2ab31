CREATE TABLE IF NOT EXISTS repositories (
  id              BIGINT       PRIMARY KEY,
  name            VARCHAR(100) NOT NULL,
  downloads_count BIGINT       NOT NULL DEFAULT 0
) ENGINE=InnoDB;
CREATE TABLE IF NOT EXISTS downloads (
  id            BIGINT    AUTO_INCREMENT PRIMARY KEY,
  repository_id BIGINT    NOT NULL,
  downloaded_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  FOREIGN KEY (repository_id) REFERENCES repositories (id)
) ENGINE=InnoDB;
