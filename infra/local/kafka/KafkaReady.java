import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/**
 * Readiness probe for the local broker (infra/local): asks the cluster for its metadata and topic
 * list over the client listener with the real Kafka AdminClient. Exit 0 = ready, 1 = not (yet).
 * Usage: java -cp "libs/*:." KafkaReady 127.0.0.1:19092 [timeoutMs]
 */
public final class KafkaReady {
  public static void main(String[] args) {
    String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:19092";
    int timeoutMs = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    Properties p = new Properties();
    p.putAll(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs,
        AdminClientConfig.RETRIES_CONFIG, 0));
    try (Admin admin = Admin.create(p)) {
      DescribeClusterResult cluster = admin.describeCluster();
      int brokers = cluster.nodes().get(timeoutMs, TimeUnit.MILLISECONDS).size();
      String id = cluster.clusterId().get(timeoutMs, TimeUnit.MILLISECONDS);
      int topics = admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS).size();
      if (brokers < 1) {
        System.err.println("no broker in cluster metadata yet");
        System.exit(1);
      }
      System.out.println("cluster " + id + ": " + brokers + " broker(s), " + topics + " topic(s)");
    } catch (Exception e) {
      System.err.println("not ready: " + e);
      System.exit(1);
    }
  }
}
