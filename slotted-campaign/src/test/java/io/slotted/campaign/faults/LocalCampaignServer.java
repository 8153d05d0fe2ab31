package io.slotted.campaign.faults;

import java.util.List;

/**
 * What every campaign server shares: it runs as processes on this machine, found and signalled by
 * its {@link ServerProcesses} under their guard. Each kind adds how it starts, stops and restarts.
 */
abstract class LocalCampaignServer implements CampaignServer {
    final ServerProcesses processes;

    LocalCampaignServer(ServerProcesses processes) {
        this.processes = processes;
    }

    @Override
    public List<ProcessHandle> processes() {
        return processes.list();
    }

    @Override
    public void pause() {
        processes.pause();
    }

    @Override
    public void resume() {
        processes.resume();
    }

    @Override
    public void kill() {
        processes.kill();
    }
}
